export {
	FakeWootric,
	startFakeWootric,
	type FakeCredentials,
	type FakeWootricOptions,
} from './server';
export type { FakeRequest } from './http';
export type { Fault } from './faults';
export {
	OutgoingWebhooks,
	WEBHOOK_EVENTS,
	type DeliveryFault,
	type DeliveryFaultRule,
	type OutgoingWebhook,
	type WebhookDelivery,
	type WebhookRegistration,
	type WebhookRegistrationOptions,
} from './outgoing-webhooks';
export {
	declinePayload,
	encodeWebhook,
	responsePayload,
	signWebhook,
	webhookPayload,
	type WebhookEvent,
	type WebhookFormat,
	type WebhookPayload,
} from './webhook-body';
export { seedDemoData, seedSurveyTemplates } from './seed';
export { createEndUser } from './resources/end-users';
export { DEFAULT_END_USER_SETTINGS } from './resources/end-user-settings';
export { addResponse, changeResponse } from './resources/responses';
export { addDecline } from './resources/declines';
export { surveyTemplateView } from './resources/survey-templates';
export { MAX_CSV_ROWS, MAX_SURVEY_EMAILS } from './resources/email-surveys';
export { MAX_PAGE, MAX_PER_PAGE, type TieOrder } from './listing';
