// Options several commands take alike.

/** `--project DIR`, taken by the commands that discover skills. */
export const PROJECT_OPTION = { project: 'value' } as const;

/** A chat endpoint to send requests to: eval and tune (read by readEndpointSettings). */
export const ENDPOINT_OPTIONS = { endpoint: 'value', model: 'value', api: 'value', concurrency: 'value' } as const;
