// n8n's node template's settings (@n8n/node-cli's .prettierrc.js): tabs, 100 columns, single
// quotes. JSON keeps two spaces, as .editorconfig says and n8n's workflow exports are written.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
	overrides: [{ files: '*.json', options: { useTabs: false } }],
};
