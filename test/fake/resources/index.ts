import type { Route } from '../http';
import { declineRoutes } from './declines';
import { emailStatsRoutes } from './email-stats';
import { emailSurveyRoutes } from './email-surveys';
import { endUserSettingsRoutes } from './end-user-settings';
import { endUserRoutes } from './end-users';
import { npsSummaryRoutes } from './nps-summary';
import { responseRoutes } from './responses';
import { segmentRoutes } from './segments';
import { surveyTemplateRoutes } from './survey-templates';

/**
 * Every endpoint of the spec and the v2 email statistics (API-FACTS); specific paths come before
 * the `:id` patterns they would also match.
 */
export const allRoutes: Route[] = [
	...responseRoutes,
	...declineRoutes,
	...endUserSettingsRoutes,
	...endUserRoutes,
	...npsSummaryRoutes,
	...segmentRoutes,
	...surveyTemplateRoutes,
	...emailSurveyRoutes,
	...emailStatsRoutes,
];
