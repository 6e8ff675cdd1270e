// An independent skill server for the client's tests: the Skills extension's reference SDK
// (@olaservo/ext-skills, on the official MCP server SDK) serving a folder, through the script in
// test/fixtures, over stdio or over HTTP on 127.0.0.1. It speaks the 2026-07-28 revision.

import * as path from 'node:path';
import type { SkillServerTransport } from '../../../../src/core/servers/mcp-client';
import { startListeningProcess, type ListeningProcess } from '../../../integration/listening-process';
import { REPOSITORY } from '../../cli/bundle';

const SCRIPT = path.join(REPOSITORY, 'test', 'fixtures', 'ext-skills-server.mjs');

export function referenceStdioServer(root: string): SkillServerTransport {
  return { kind: 'stdio', command: process.execPath, args: [SCRIPT, root] };
}

/** Serves `root` over HTTP on a free port of 127.0.0.1; resolves once it listens. */
export function startReferenceHttpServer(root: string): Promise<ListeningProcess> {
  return startListeningProcess(process.execPath, [SCRIPT, root, '--http']);
}
