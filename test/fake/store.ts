import type { ParamObject } from './brackets';
import { FakeClock } from './clock';
import { RecordTable } from './listing';

export type Region = 'us' | 'eu' | 'au';
export type Properties = Record<string, string>;

export interface EndUserSettings {
	id: number;
	createdAt: number;
	updatedAt: number;
	email_nps: boolean | null;
	mobile_nps: boolean | null;
	web_nps: boolean | null;
	force_mobile_survey: boolean | null;
	force_web_survey: boolean | null;
	surveys_disabled_by_end_user: boolean | null;
}

export interface EndUser {
	id: number;
	email: string;
	createdAt: number;
	updatedAt: number;
	lastSurveyed: number | null;
	externalCreatedAt: number | null;
	lastSeenAt: number | null;
	properties: Properties;
	phoneNumber: string | null;
	externalId: string | null;
	settings: EndUserSettings;
	/** Set by DELETE; the deletion run removes the user the next day after 07:00 UTC. */
	markedForDeletionAt: number | null;
}

export type SurveyChannel = 'web' | 'mobile' | 'email';

export interface SurveyResponse {
	id: number;
	endUserId: number;
	surveyId: number;
	channel: SurveyChannel;
	score: number;
	text: string | null;
	completed: boolean;
	excludedFromCalculations: boolean;
	ipAddress: string;
	originUrl: string;
	createdAt: number;
	updatedAt: number;
	tags: string[];
	notes: unknown[];
	endUserProperties: Properties;
}

export interface Decline {
	id: number;
	endUserId: number;
	surveyId: number;
	channel: SurveyChannel;
	ipAddress: string | null;
	originUrl: string | null;
	createdAt: number;
	updatedAt: number;
	endUserProperties: Properties;
}

/**
 * What the service announces through its outgoing webhooks (API-FACTS, "Outgoing webhooks"): a
 * response created or updated, a decline created.
 */
export type SurveyEvent =
	| { name: 'response_created' | 'response_updated'; response: SurveyResponse }
	| { name: 'decline_created'; decline: Decline };

export interface Segment {
	name: string;
	dataType: 'string' | 'date' | 'integer';
	createdAt: number;
}

export interface SurveyTemplate {
	id: number;
	name: string;
	defaultLanguage: string;
	languages: Array<{ code: string; name: string }>;
	nonConfiguredLanguageCount: number;
}

/** What an email-survey request asked for, as the service understood it. */
export interface EmailSurveyRecord {
	endpoint: 'email_survey' | 'email_survey_csv';
	receivedAt: number;
	emails: string[];
	/** The CSV's data rows keyed by header, for email_survey_csv. */
	rows?: Array<Record<string, string>>;
	/** The uploaded CSV file's name, for email_survey_csv sent as a multipart file. */
	fileName?: string;
	params: ParamObject;
}

export class Account {
	readonly endUsers = new Map<number, EndUser>();
	readonly responses = new RecordTable<SurveyResponse>();
	readonly declines = new RecordTable<Decline>();
	readonly segments: Segment[] = [];
	readonly surveyTemplates: SurveyTemplate[] = [];
	defaultSurveyTemplateId: number | null = null;
	readonly emailSurveys: EmailSurveyRecord[] = [];
	readonly exports: Array<{ endUserId: number; requestedAt: number }> = [];
	/** Who hears of the account's survey events: its outgoing webhooks. */
	readonly surveyEventListeners: Array<(event: SurveyEvent) => void> = [];
	/**
	 * The survey the account runs. Responses do not carry it; webhooks name it (`survey_mode`), with
	 * no word of a CSAT scale.
	 */
	surveyMode: 'NPS' | 'CSAT' | 'CES' = 'NPS';

	constructor(
		readonly token: string,
		readonly userId: number,
		/** The account's time zone, as a fixed UTC offset: it shapes datetimes and NPS-summary days. */
		public utcOffsetMinutes: number,
		/** Set to Rails' UTC zone (offset 0): datetimes print `… UTC` (see datetime.ts, TimeZone). */
		public railsUtc: boolean,
		/** Historical end_user.properties edits on responses/declines answer 423 unless enabled. */
		public historicalEditsEnabled: boolean,
	) {}

	announce(event: SurveyEvent): void {
		for (const listener of this.surveyEventListeners) listener(event);
	}
}

export interface Login {
	email: string;
	password: string;
	/** The first is the account a password grant without account_token signs into. */
	accountTokens: string[];
}

export interface ApiClient {
	clientId: string;
	clientSecret: string;
	accountToken: string;
}

export interface AccessGrant {
	accessToken: string;
	accountToken: string;
	expiresAt: number;
}

export interface RefreshGrant {
	refreshToken: string;
	email: string;
	accountToken: string;
}

/** Everything one fake instance (one region) holds, in memory. */
export class FakeStore {
	readonly accounts = new Map<string, Account>();
	readonly logins: Login[] = [];
	readonly clients: ApiClient[] = [];
	readonly accessGrants = new Map<string, AccessGrant>();
	readonly refreshGrants = new Map<string, RefreshGrant>();
	/** Every access and refresh token ever issued, spent or not: what a run must never show. */
	readonly issuedTokens: string[] = [];
	private lastId = 1000;

	constructor(
		readonly region: Region,
		readonly clock: FakeClock,
		public tokenLifetimeSeconds = 7200,
	) {}

	nextId(): number {
		return ++this.lastId;
	}

	addAccount(options: {
		token: string;
		utcOffsetMinutes?: number;
		railsUtc?: boolean;
		historicalEditsEnabled?: boolean;
	}): Account {
		const account = new Account(
			options.token,
			this.nextId(),
			options.railsUtc ? 0 : (options.utcOffsetMinutes ?? 0),
			options.railsUtc ?? false,
			options.historicalEditsEnabled ?? false,
		);
		this.accounts.set(account.token, account);
		return account;
	}

	/** Ends every access token now, as if two hours had passed. */
	expireAccessTokens(): void {
		for (const grant of this.accessGrants.values()) grant.expiresAt = this.clock.now();
	}
}
