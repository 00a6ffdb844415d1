// What a failed file system call says, in the terms the callers decide on.

export const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** `link` failed because this file system has no hard links (FAT, exFAT, some network shares), not because the name is taken. */
export const isNoHardLinks = (error: unknown): boolean =>
  ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK'].includes(errorCode(error) ?? '');
