/** An error answer in the service's own body shape (API-FACTS: "error_list"). */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly field: string | null = null,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	get body(): object {
		return {
			type: 'error_list',
			errors: [{ status: this.code, message: this.message, field: this.field }],
		};
	}
}

export const notFound = () =>
	new ApiError(404, 'record_not_found', 'The record could not be found');

export const invalidValue = (field: string) =>
	new ApiError(400, 'invalid_parameter', `${field} does not have a valid value`, field);

export const missingValue = (field: string) =>
	new ApiError(400, 'missing_parameter', `${field} is required`, field);

export const unauthorized = (message = 'The access token is invalid') =>
	new ApiError(401, 'unauthorized', message);
