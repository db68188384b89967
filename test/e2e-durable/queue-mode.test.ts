import { durablePollerSuite } from './durable-poller';

durablePollerSuite('queue mode');
