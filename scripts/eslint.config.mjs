// Development tooling, linted as test/ is (test/eslint.config.mjs says why).
export { default } from '../test/eslint.config.mjs';
