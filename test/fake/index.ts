export { FakeWootric, startFakeWootric, type FakeCredentials, type FakeWootricOptions } from './server';
export type { FakeRequest } from './http';
export type { Fault } from './faults';
export { seedDemoData } from './seed';
export { createEndUser } from './resources/end-users';
export { addResponse, changeResponse } from './resources/responses';
export { addDecline } from './resources/declines';
export { MAX_CSV_ROWS, MAX_SURVEY_EMAILS } from './resources/email-surveys';
export { MAX_PAGE, MAX_PER_PAGE, type TieOrder } from './listing';
