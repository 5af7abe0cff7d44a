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

-- jest keeps each module's function for the run, with the environment of the
-- spec file that last ran it: a finished file's sandbox (its require and every
-- module it loaded) stays alive through it. In the headless gate, hand those
-- functions their globals back. Last, as it resets this file's own function too.
if __HEADLESS_GATE then
	__HEADLESS_GATE.releaseChunks()
end

return nil
