-- Runs before each spec file. jest-lua gives every spec file a fresh module
-- registry, so roblox-ts's RuntimeLib runs again per file while _G is shared;
-- its "multiple TS runtimes" guard (roblox-ts issue #3011) then rejects every
-- file after the first. Forget the previous file's registrations.
for key in _G do
	if typeof(key) == "Instance" then
		_G[key] = nil
	end
end
return nil
