// Runs calls on their own threads in this frame and waits for them: they spend
// their budgets together. Returns the errors of those that failed.
export function together(count: number, call: (i: number) => void): string[] {
	const errors = new Array<string>();
	let done = 0;
	for (let i = 1; i <= count; i++) {
		task.spawn(() => {
			const [ok, message] = pcall(() => call(i));
			if (!ok) errors.push(tostring(message));
			done += 1;
		});
	}
	while (done < count) task.wait();
	return errors;
}
