/** This package's version, sent as context.library.version (a unit test keeps it equal to package.json's). */
export const LIBRARY_VERSION = '0.1.0';

export const LIBRARY_NAME = '@switchyard/analytics';
