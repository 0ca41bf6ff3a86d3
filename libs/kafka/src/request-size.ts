/**
 * Key and value bytes in one produce request, for every Switchyard producer. The broker refuses a
 * record batch above its `message.max.bytes` (1 MB by default) and kafkajs does not retry that,
 * so requests stay well below it; readers size their buffers by it too.
 */
export const MAX_PRODUCE_REQUEST_BYTES = 512 * 1024;
