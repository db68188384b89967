// Copies node and credential icons (and node codex files and output schemas, which tsc does not
// emit) next to their compiled files, where n8n looks for them.
const { src, dest, task } = require('gulp');

task('build:icons', () =>
	src(
		[
			'nodes/**/*.{png,svg}',
			'nodes/**/*.node.json',
			'nodes/**/__schema__/**/*.json',
			'credentials/**/*.{png,svg}',
		],
		{
			base: '.',
			encoding: false,
		},
	).pipe(dest('dist')),
);
