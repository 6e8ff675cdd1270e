// What a request of the stateless protocol revision (2026-07-28) carries in its `_meta`: the
// revision, the client's capabilities and who it is, in place of an initialize handshake.

export const STATELESS_REVISION = '2026-07-28';

export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
