import { describeTriggerModel } from '../support/trigger-model';

// The polling trigger's model (test/support/trigger-model.ts), the second half of its seeds.
describeTriggerModel(2);
