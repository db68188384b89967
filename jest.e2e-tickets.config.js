/**
 * `npm run test:e2e:tickets`: the examples that open tickets in Zendesk, Jira and Slack, in a real n8n
 * against local fakes of those APIs (test/e2e-tickets). E2E_TICKET_TOOLS picks the tools (default all).
 * @type {import('jest').Config}
 */
module.exports = { ...require('./jest.e2e.config.js'), roots: ['<rootDir>/test/e2e-tickets'] };
