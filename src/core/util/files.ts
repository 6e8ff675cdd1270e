import * as fs from 'node:fs';

/**
 * Flags for opening a file of a skill folder to read it, without waiting: a named pipe under that
 * name would otherwise hold the open, and the thread making it, until something writes to it.
 * Regular files read as usual; Windows has neither such files nor the flag.
 */
export const READ_WITHOUT_WAITING = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * When a folder came to be where it is: the later birth time of the path itself (a link made when
 * a skill was installed) and of the folder it leads to; undefined when neither can be read or the
 * file system keeps no birth time (Node then gives 0). The change time is no stand-in: any change
 * inside the folder moves it.
 */
export async function folderBirthTime(dir: string): Promise<number | undefined> {
  const [link, target] = await Promise.all([fs.promises.lstat(dir).catch(() => undefined), fs.promises.stat(dir).catch(() => undefined)]);
  const born = Math.max(link?.birthtimeMs ?? 0, target?.birthtimeMs ?? 0);
  return born > 0 ? born : undefined;
}

/** Whether anything is at `file`, a broken symbolic link included (lstat: the link itself counts). */
export async function pathExists(file: string): Promise<boolean> {
  return (await fs.promises.lstat(file).catch(() => undefined)) !== undefined;
}

/** Whether `dir` is a folder, or a symbolic link leading to one. */
export async function isFolder(dir: string): Promise<boolean> {
  return (await fs.promises.stat(dir).catch(() => undefined))?.isDirectory() ?? false;
}
