export { InMemoryCredentialsHelper } from './credentials-helper';
export type { CredentialUpdate } from './credentials-helper';
export { loadPackage, REPO_ROOT } from './package';
export type { LoadedPackage } from './package';
export type { NodeUnderTestOptions } from './node-under-test';
export { runNode } from './run-node';
export type { BinaryInput, InputItem, NodeRun, RunNodeOptions } from './run-node';
export { runPoll } from './run-poll';
export type { PollRun, RunPollOptions } from './run-poll';
