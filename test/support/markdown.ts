/**
 * The GitHub/npm anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens.
 */
export function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (outside code blocks). */
export function headingAnchors(markdown: string): string[] {
	let fenced = false;
	const anchors: string[] = [];
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = /^#{1,6} (.+)$/.exec(line);
		if (!fenced && heading) anchors.push(anchorOf(heading[1]));
	}
	return anchors;
}
