// What one running server holds for all its clients; mcp-command.ts starts it, the stdio and HTTP
// servers serve it.

import type { SkillRegistry } from '../../core/discovery/registry';
import type { PublishedSkills } from '../../core/mcp/published-skills';
import type { Event } from '../../core/model/event';
import type { RootWatcher } from './root-watcher';
import type { ListChanges, SkillsServer } from './skills-server';

/**
 * The registry over the roots, the published skills, and a watcher that keeps both current; each
 * client connection gets its own server over them (`openServer`), told of every change until it is
 * closed, and each request of the stateless revision one of its own (`requestServer`). The first
 * answer does not wait for the watcher's initial scan (`watcher.ready`).
 */
export interface SkillsService {
  registry: SkillRegistry;
  published: PublishedSkills;
  watcher: RootWatcher;
  /** With a project: resolves once its folders are watched for new sub-project locations. */
  projectWatched?: Promise<void>;
  /** Fired when a list a client holds changed (2026-07-28 clients are told through their subscriptions). */
  onListsChanged: Event<ListChanges>;
  /** A server for one client connection (stdio, a 2025-11-25 session), told of every change; `close` releases it. */
  openServer(): SkillsServer;
  /**
   * A server for one request: the lists as they are now, no notifications. Once closed, it serves a
   * later request while the lists are unchanged (building one costs more than most requests).
   */
  requestServer(): SkillsServer;
  close(): Promise<void>;
}
