import {
	startFakeWootric,
	type FakeCredentials,
	type FakeWootric,
	type FakeWootricOptions,
} from '../index';
import { RawClient, type RawReply } from './client';

/** Seconds, the unit of every timestamp the fake stores. */
export const HOUR = 3600;
export const DAY = 86400;
/** 2024-03-10 12:00:00 at the fake's default offset, -0800. */
export const FIXED_NOW = Date.UTC(2024, 2, 10, 20, 0, 0) / 1000;

export interface FakeApiSetup {
	/** Options to start the fake with. */
	options?: FakeWootricOptions;
	/**
	 * UNIX seconds to set the fake's clock to after it starts; without it, the clock runs in real
	 * time.
	 */
	now?: number;
	/**
	 * Runs after the start (and the clock set), e.g. to give the account templates or an end user.
	 */
	seed?: (fake: FakeWootric) => void;
}

export interface FakeApi {
	/** The fake of the running test. */
	fake: () => FakeWootric;
	/** A RawClient of that fake. */
	api: () => RawClient;
	/**
	 * Closes the running test's fake and starts another with these options instead; `now` and `seed`
	 * apply again.
	 */
	restart: (options?: FakeWootricOptions) => Promise<void>;
}

/**
 * Registers beforeEach/afterEach in the enclosing block (or the file) that start a fresh fake, with
 * its clock at `now` and a RawClient, and close it after the test. Returns accessors, as the
 * instance changes with every test.
 */
export function useFakeApi(setup: FakeApiSetup = {}): FakeApi {
	let current: { fake: FakeWootric; api: RawClient } | undefined;

	async function start(options?: FakeWootricOptions) {
		const fake = await startFakeWootric(options);
		if (setup.now !== undefined) fake.clock.set(setup.now);
		current = { fake, api: new RawClient(fake) };
		setup.seed?.(fake);
	}

	async function close() {
		const running = current;
		current = undefined;
		await running?.fake.close();
	}

	function running() {
		if (!current)
			throw new Error(
				'useFakeApi: no fake is running here; call fake() and api() inside a test or a hook',
			);
		return current;
	}

	beforeEach(() => start(setup.options));
	afterEach(close);

	return {
		fake: () => running().fake,
		api: () => running().api,
		restart: async (options) => {
			await close();
			await start(options);
		},
	};
}

export const errorList = (status: string, message: string, field: string | null) => ({
	type: 'error_list',
	errors: [{ status, message, field }],
});

export const NOT_FOUND_BODY = errorList('record_not_found', 'The record could not be found', null);

/** The 400 body for a parameter the fake could not read, naming it. */
export const invalidParameter = (field: string) =>
	errorList('invalid_parameter', `${field} does not have a valid value`, field);

export function expectNotFound(reply: RawReply) {
	expect(reply.status).toBe(404);
	expect(reply.body).toEqual(NOT_FOUND_BODY);
}

/**
 * A 400 with an error_list naming `field`, its message containing the field's name (or matching
 * `mentions`).
 */
export function expectBadRequest(
	reply: RawReply,
	field: string,
	mentions: string | RegExp = field,
) {
	const message =
		typeof mentions === 'string'
			? expect.stringContaining(mentions)
			: expect.stringMatching(mentions);
	expect(reply.status).toBe(400);
	expect(reply.body).toEqual({
		type: 'error_list',
		errors: [{ status: expect.any(String), message, field }],
	});
}

/** The emails of the account's end users, in the order they were created. */
export const emailsOf = (fake: FakeWootric) =>
	[...fake.account.endUsers.values()].map((user) => user.email);

/**
 * An email survey's 400 naming `field` (see expectBadRequest), after which no end user was created
 * and no survey recorded.
 */
export function expectSurveyRejected(
	fake: FakeWootric,
	reply: RawReply,
	field: string,
	mentions?: string | RegExp,
) {
	expectBadRequest(reply, field, mentions);
	expect(fake.account.emailSurveys).toEqual([]);
	expect(emailsOf(fake)).toEqual([]);
}

/** The ids of a list reply, in order. */
export const idsOf = (reply: RawReply): number[] =>
	reply.body.map((record: { id: number }) => record.id);

/** A form body for POST /oauth/token, password grant. */
export const passwordGrantForm = ({
	email,
	password,
}: Pick<FakeCredentials, 'email' | 'password'>) =>
	`grant_type=password&username=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`;

/** A form body for POST /oauth/token, client_credentials grant. */
export const clientCredentialsForm = ({
	clientId,
	clientSecret,
}: Pick<FakeCredentials, 'clientId' | 'clientSecret'>) =>
	`grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`;
