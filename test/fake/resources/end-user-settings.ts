import { formatDatetime } from '../datetime';
import { ok, route, type ApiCall, type Route } from '../http';
import { paramsOf } from '../params';
import type { EndUserSettings } from '../store';
import { endUserById } from './end-users';

const WRITABLE_FLAGS = [
	'email_nps',
	'mobile_nps',
	'web_nps',
	'force_web_survey',
	'force_mobile_survey',
] as const;

/**
 * The flags of an end user nobody changed, as the `settings` hash inside the end user shows them.
 */
export const DEFAULT_END_USER_SETTINGS = {
	email_nps: true,
	mobile_nps: true,
	web_nps: true,
	force_mobile_survey: false,
	force_web_survey: false,
	surveys_disabled_by_end_user: false,
};

/** The `settings` hash inside an end user. */
export function settingsSummary(settings: EndUserSettings) {
	return {
		email_nps: settings.email_nps,
		mobile_nps: settings.mobile_nps,
		web_nps: settings.web_nps,
		force_mobile_survey: settings.force_mobile_survey,
		force_web_survey: settings.force_web_survey,
		surveys_disabled_by_end_user: settings.surveys_disabled_by_end_user,
	};
}

/**
 * The settings body carries only these fields in use; GET and PUT show datetimes in different
 * forms.
 */
function settingsView(
	call: ApiCall,
	endUserId: number,
	settings: EndUserSettings,
	form: 'spaceColonOffset' | 'isoMillis',
) {
	return {
		id: settings.id,
		end_user_id: endUserId,
		created_at: formatDatetime(settings.createdAt, call.account, form),
		updated_at: formatDatetime(settings.updatedAt, call.account, form),
		email_nps: settings.email_nps,
	};
}

function get(call: ApiCall) {
	const user = endUserById(call, call.pathParams.endUserId);
	return ok(settingsView(call, user.id, user.settings, 'spaceColonOffset'));
}

function update(call: ApiCall) {
	const user = endUserById(call, call.pathParams.endUserId);
	const params = paramsOf(call.request.params);
	// Every flag is checked before any is written: a 400 leaves the settings as they were.
	const given = WRITABLE_FLAGS.map((flag) => [flag, params.boolean(flag)] as const);
	for (const [flag, value] of given) {
		if (value !== undefined) user.settings[flag] = value;
	}
	user.settings.updatedAt = call.store.clock.now();
	return ok(settingsView(call, user.id, user.settings, 'isoMillis'));
}

export const endUserSettingsRoutes: Route[] = [
	route('GET', '/v1/end_users/:endUserId/settings', get),
	route('PUT', '/v1/end_users/:endUserId/settings', update),
];
