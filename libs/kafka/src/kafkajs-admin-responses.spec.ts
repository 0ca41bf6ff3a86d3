import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, admin side: responses that list topics sort them by code unit.
 * kafkajs sorted them with localeCompare, whose collation pages ICU data into every process that
 * creates a topic.
 */
const load = createRequire(__filename);
interface Encoder {
  writeInt32(value: number): Encoder;
  writeInt16(value: number): Encoder;
  writeString(value: string | null): Encoder;
  writeArray(values: Encoder[]): Encoder;
  buffer: Buffer;
}
const Encoder = load('kafkajs/src/protocol/encoder') as { new (): Encoder };
const createTopicsV2 = load('kafkajs/src/protocol/requests/createTopics/v2/response') as {
  decode(raw: Buffer): Promise<{ topicErrors: { topic: string }[] }>;
};

describe('the patched kafkajs admin responses', () => {
  it('list created topics in code-unit order without localeCompare', async () => {
    const topics = ['sy.b', 'sy.B', 'sy.a'].map((topic) =>
      new Encoder().writeString(topic).writeInt16(0).writeString(null),
    );
    const raw = new Encoder().writeInt32(0).writeArray(topics).buffer;
    const localeCompare = jest.spyOn(String.prototype, 'localeCompare');

    const { topicErrors } = await createTopicsV2.decode(raw);

    expect(topicErrors.map(({ topic }) => topic)).toEqual(['sy.B', 'sy.a', 'sy.b']);
    expect(localeCompare).not.toHaveBeenCalled();
    localeCompare.mockRestore();
  });
});
