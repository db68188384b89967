/**
 * What the tool variant's Simplified output keeps of each kind of record: the tests' own list, not
 * read from the node.
 */
export const SIMPLIFIED_TOOL_FIELDS = {
	responses: [
		'id',
		'end_user_id',
		'score',
		'nps_category',
		'text',
		'completed',
		'excluded_from_calculations',
		'tags',
		'created_at',
		'updated_at',
	],
	declines: ['id', 'end_user_id', 'survey_id', 'origin_url', 'created_at', 'updated_at'],
	endUsers: [
		'id',
		'email',
		'external_id',
		'phone_number',
		'properties',
		'last_surveyed',
		'last_response',
		'created_at',
		'updated_at',
	],
};
