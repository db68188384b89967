/**
 * `npm run sandbox`: the fake Wootric API with demo data, for trying the nodes in n8n without an
 * account. Port: SANDBOX_PORT (default 4010).
 */
import { FakeWootric, seedDemoData } from './index';

async function main() {
	const sandbox = await new FakeWootric().listen(Number(process.env.SANDBOX_PORT ?? 4010));
	seedDemoData(sandbox.store, sandbox.account);
	sandbox.rateLimits.setDocumentedLimits();
	const { email, password, accountToken, clientId, clientSecret, webhookSecret } =
		sandbox.credentials;
	console.log(`Fake Wootric API listening on ${sandbox.baseUrl}

In n8n, create a "Wootric API" credential with Region "Custom Base URL", Base URL ${sandbox.baseUrl}, and
  Authentication "Password":            Email ${email}
                                        Password ${password}
                                        Account Token ${accountToken} (optional)
  or Authentication "Client Credentials": Client ID ${clientId}
                                        Client Secret ${clientSecret}
  and, for the Wootric Webhook Trigger, Webhook Secret Token ${webhookSecret}.

The sandbox sends outgoing webhooks once a URL is registered (the service's Settings → Outgoing Webhooks):
  curl -X POST ${sandbox.baseUrl}/_fake/outgoing_webhooks -H 'content-type: application/json' \\
    -d '{"url": "<Production URL of the Webhook Trigger>"}'   (optional: "events", "format": "json")
  An end user answering a survey: POST ${sandbox.baseUrl}/_fake/responses/<id>/answer {"score": 3, "text": "..."}
  What was sent: GET ${sandbox.baseUrl}/_fake/outgoing_webhooks

Press Ctrl+C to stop.`);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
