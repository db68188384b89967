import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';

import {
	signInFor,
	withBearerToken,
	WOOTRIC_BASE_URL_EXPRESSION,
} from '../nodes/Wootric/transport/signIn';

export class WootricApi implements ICredentialType {
	name = 'wootricApi';

	displayName = 'Wootric API';

	icon = { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' } as const;

	documentationUrl = 'https://docs.wootric.com/api/';

	properties: INodeProperties[] = [
		{
			displayName: 'Authentication',
			name: 'grantType',
			type: 'options',
			options: [
				{
					name: 'Password',
					value: 'password',
					description: 'Sign in with the account email and password',
				},
				{
					name: 'Client Credentials',
					value: 'clientCredentials',
					description: 'Use an API client ID and secret',
				},
			],
			default: 'password',
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'name@email.com',
			required: true,
			displayOptions: { show: { grantType: ['password'] } },
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { grantType: ['password'] } },
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { grantType: ['clientCredentials'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { grantType: ['clientCredentials'] } },
		},
		{
			displayName: 'Account Token',
			name: 'accountToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'NPS-EU-1a2b3c4d',
			description:
				'Your account token (Settings → Installation). Needed when your login has several accounts; also tells the region in Auto mode.',
		},
		{
			displayName: 'Survey Type',
			name: 'surveyType',
			type: 'options',
			options: [
				{ name: 'NPS (0–10)', value: 'nps' },
				{ name: 'CSAT (1–5)', value: 'csat5' },
				{ name: 'CSAT (1–10)', value: 'csat10' },
				{ name: 'CES (1–7)', value: 'ces7' },
			],
			default: 'nps',
			description:
				'The survey this account runs (Wootric switches an account to CSAT or CES on request; responses do not say which). Every node with this credential judges scores by it: categories, filters, score checks.',
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'options',
			options: [
				{ name: 'Auto (From Account Token)', value: 'auto' },
				{ name: 'US', value: 'us' },
				{ name: 'EU', value: 'eu' },
				{ name: 'AU', value: 'au' },
				{ name: 'Custom Base URL', value: 'custom' },
			],
			default: 'auto',
			description: 'Auto picks EU or AU for account tokens starting NPS-EU or NPS-AU, US otherwise',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'http://127.0.0.1:4010',
			required: true,
			description: 'For proxies and the local sandbox: the host serving /oauth/token and /v1',
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'Webhook Secret Token',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'For the Wootric Webhook Trigger only: the secret token shown in Wootric under Settings → Outgoing Webhooks. Every webhook is checked against it.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'Issued For Sign-In',
			name: 'issuedForSignIn',
			type: 'hidden',
			default: '',
		},
	];

	/**
	 * n8n calls this when the access token is empty or a request answered 401, and saves what it
	 * returns: a token for the credential as it is now (see signInFor).
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await signInFor(this, credentials);
	}

	/**
	 * A function rather than a generic `={{…}}` definition, which n8n would evaluate as an expression
	 * on every request; it leaves out tokens of another sign-in (see withBearerToken).
	 */
	authenticate: IAuthenticate = async (credentials, requestOptions) =>
		withBearerToken(credentials, requestOptions);

	test: ICredentialTestRequest = {
		request: {
			baseURL: WOOTRIC_BASE_URL_EXPRESSION,
			url: '/v1/segments',
		},
	};
}
