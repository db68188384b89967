import { addDecline } from './resources/declines';
import { createEndUser } from './resources/end-users';
import { addResponse } from './resources/responses';
import type { Account, FakeStore } from './store';

const DAY = 86400;

/**
 * Gives the account the demo survey templates: 501 "Default NPS" (EN), its default, and 502
 * "Multi-language NPS" (EN, ES, DE).
 */
export function seedSurveyTemplates(account: Account): void {
	account.surveyTemplates.push(
		{
			id: 501,
			name: 'Default NPS',
			defaultLanguage: 'EN',
			languages: [{ code: 'EN', name: 'English' }],
			nonConfiguredLanguageCount: 0,
		},
		{
			id: 502,
			name: 'Multi-language NPS',
			defaultLanguage: 'EN',
			languages: [
				{ code: 'EN', name: 'English' },
				{ code: 'ES', name: 'Spanish' },
				{ code: 'DE', name: 'German' },
			],
			nonConfiguredLanguageCount: 2,
		},
	);
	account.defaultSurveyTemplateId = 501;
}

/** Demo data for the sandbox and for tests that want a lived-in account. */
export function seedDemoData(store: FakeStore, account: Account): void {
	const now = store.clock.now();
	account.segments.push(
		{ name: 'plan', dataType: 'string', createdAt: now - 90 * DAY },
		{ name: 'seats', dataType: 'integer', createdAt: now - 90 * DAY },
		{ name: 'renewal_date', dataType: 'date', createdAt: now - 60 * DAY },
	);
	seedSurveyTemplates(account);

	const people = [
		{ email: 'ada@example.com', plan: 'enterprise', score: 10, text: 'Indispensable.' },
		{ email: 'grace@example.com', plan: 'pro', score: 9, text: 'Great support team.' },
		{ email: 'linus@example.com', plan: 'pro', score: 7, text: null },
		{ email: 'margaret@example.com', plan: 'starter', score: 3, text: 'Exports keep timing out.' },
		{
			email: 'alan@example.com',
			plan: 'starter',
			score: 6,
			text: 'Too expensive for what it does.',
		},
	];
	people.forEach((person, index) => {
		const createdAt = now - (30 - index) * DAY;
		const user = createEndUser(account, store, person.email, {
			createdAt,
			updatedAt: createdAt,
			externalId: `crm-${index + 1}`,
			phoneNumber: `+1555010${index}`,
			properties: { plan: person.plan },
		});
		const answeredAt = now - (10 - index) * DAY;
		addResponse(account, store, {
			endUserId: user.id,
			channel: index % 2 === 0 ? 'email' : 'web',
			score: person.score,
			text: person.text,
			originUrl: 'https://app.example.com/dashboard',
			createdAt: answeredAt,
			updatedAt: answeredAt,
			endUserProperties: { plan: person.plan },
		});
	});
	const decliner = createEndUser(account, store, 'barbara@example.com', {
		createdAt: now - 20 * DAY,
		updatedAt: now - 20 * DAY,
	});
	addDecline(account, store, {
		endUserId: decliner.id,
		ipAddress: '198.51.100.4',
		originUrl: 'https://app.example.com/settings',
		createdAt: now - 2 * DAY,
		updatedAt: now - 2 * DAY,
	});
}
