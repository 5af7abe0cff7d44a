-- The closing line of a spec run, from jest's aggregated results:
-- "N passed, N failed" (", N skipped" when any). A spec file that failed to
-- run counts as a failed test. The headless gate and the Studio SpecGate
-- Script both end with this line. Returns the line, the failed count, and the
-- number of spec files that failed to run.
return function(results): (string, number, number)
	local failedFiles = results.numRuntimeErrorTestSuites or 0
	local failed = results.numFailedTests + failedFiles
	local skipped = results.numPendingTests + (results.numTodoTests or 0)
	local line = string.format("%d passed, %d failed", results.numPassedTests, failed)
	if skipped > 0 then
		line ..= string.format(", %d skipped", skipped)
	end
	return line, failed, failedFiles
end
