// The trigger-tests area's types other areas name: the trigger-test files and the Testing view's controller.

import type { TriggerTestController } from './trigger-tests';
import type { TriggerTestFiles } from './trigger-test-files';

export type { TriggerTestController } from './trigger-tests';
export type { TriggerTestFiles } from './trigger-test-files';

/** What register() hands the other areas. */
export interface TriggerTests {
  files: TriggerTestFiles;
  controller: TriggerTestController;
}
