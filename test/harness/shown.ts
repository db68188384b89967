/**
 * Everything a run shows a user: output items, error messages and descriptions, credential-test and
 * dropdown results. The secret guard (test/support/secret-guard.ts) checks none of it holds a
 * secret.
 */
export const shownToUsers: string[] = [];

export function recordShown(value: unknown): void {
	const error = (value as { error?: { message?: string; description?: string | null } })?.error;
	shownToUsers.push(
		JSON.stringify(value, (_, entry: unknown) =>
			typeof entry === 'bigint' ? String(entry) : entry,
		) ?? '',
	);
	if (error) shownToUsers.push(`${error.message ?? ''} ${error.description ?? ''}`);
}
