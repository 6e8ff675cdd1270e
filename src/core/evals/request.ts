// The request a trigger test sends: the first turn of an @skills conversation, built by the same
// function as @skills's own requests, so a test measures what users get.

import type { PromptMessage } from '../chat/conversation';
import { requestPrompt } from '../chat/prompt';

/** The instructions with the whole catalog, no earlier turns, and the query as the user's message. */
export function triggerTestPrompt(catalogText: string, untrustedCount: number, query: string): PromptMessage[] {
  return requestPrompt({ catalogText, loadedNames: [], untrustedCount }, [], query);
}
