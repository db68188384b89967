import { durablePollerSuite } from './durable-poller';

durablePollerSuite('one process');
