// The bench's floor trigger's credential: the webhook secret, and nothing else.
class FloorSecret {
	constructor() {
		this.name = 'benchFloorSecret';
		this.displayName = 'Bench Floor Secret';
		this.properties = [
			{
				displayName: 'Webhook Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
			},
		];
	}
}

module.exports = { FloorSecret };
