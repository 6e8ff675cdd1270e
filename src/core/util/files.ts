import * as fs from 'node:fs';

/**
 * Flags for opening a file of a skill folder to read it, without waiting: a named pipe under that
 * name would otherwise hold the open, and the thread making it, until something writes to it.
 * Regular files read as usual; Windows has neither such files nor the flag.
 */
export const READ_WITHOUT_WAITING = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
