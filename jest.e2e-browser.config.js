/**
 * `npm run test:e2e:browser`: n8n's editor in Debian's Chromium (test/e2e-browser), against the real
 * n8n of the e2e. About 5 minutes with a warm cache.
 * @type {import('jest').Config}
 */
module.exports = { ...require('./jest.e2e.config.js'), roots: ['<rootDir>/test/e2e-browser'] };
