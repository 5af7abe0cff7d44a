-- Runs before each spec file. jest-lua gives every spec file a fresh module
-- registry, so roblox-ts's RuntimeLib runs again per file while _G is shared;
-- its "multiple TS runtimes" guard (roblox-ts issue #3011) then rejects every
-- file after the first. Forget the previous file's registrations.
for key in _G do
	if typeof(key) == "Instance" then
		_G[key] = nil
	end
end

-- jest-circus keeps each file's state (its tests, and through their closures
-- the file's whole module registry) in _G under a symbol of that file's own
-- registry, so every spec file would stay in memory to the end of the run.
-- Drop the states that hold tests: this file's has none yet.
for key, value in _G do
	if tostring(key) == "Symbol(JEST_STATE_SYMBOL)" and type(value) == "table" then
		local root = value.rootDescribeBlock
		if root and root.children and #root.children > 0 then
			_G[key] = nil
		end
	end
end

return nil
