// What GitHub code scanning's upload-sarif accepts of a SARIF 2.1.0 log, for the objects a log of
// `audit --sarif` holds: the required properties and the only properties allowed of each object
// (the SARIF 2.1.0 JSON schema's `required` and `properties`, whose `additionalProperties: false`
// upload-sarif enforces), the enumerations and bounds it sets, and what code scanning needs beyond
// the schema: a results array in every run, rules that the results name, and file locations
// relative to the repository.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface ObjectRule {
  /** Each a set of properties one of which must be present (the schema's `required` or `anyOf`). */
  required: readonly (readonly string[])[];
  allowed: readonly string[];
  /** Properties holding an object (or, in brackets, an array of objects) of another kind. */
  children: Readonly<Record<string, string>>;
}

const MESSAGE_STRING = 'multiformatMessageString';

const words = (text: string): string[] => text.split(' ');

const SARIF_OBJECTS: Readonly<Record<string, ObjectRule>> = {
  log: { required: [['version'], ['runs']], allowed: words('$schema version runs inlineExternalProperties properties'), children: { runs: '[run]' } },
  run: {
    required: [['tool'], ['results']],
    allowed: words(
      'tool invocations conversion language versionControlProvenance originalUriBaseIds artifacts logicalLocations graphs results automationDetails runAggregates ' +
        'baselineGuid redactionTokens defaultEncoding defaultSourceLanguage newlineSequences columnKind externalPropertyFileReferences threadFlowLocations taxonomies ' +
        'addresses translations policies webRequests webResponses specialLocations properties',
    ),
    children: { tool: 'tool', results: '[result]' },
  },
  tool: { required: [['driver']], allowed: words('driver extensions properties'), children: { driver: 'toolComponent' } },
  toolComponent: {
    required: [['name']],
    allowed: words(
      'guid name organization product productSuite shortDescription fullDescription fullName version semanticVersion dottedQuadFileVersion releaseDateUtc ' +
        'downloadUri informationUri globalMessageStrings notifications rules taxa locations language contents isComprehensive localizedDataSemanticVersion ' +
        'minimumRequiredLocalizedDataSemanticVersion associatedComponent translationMetadata supportedTaxonomies properties',
    ),
    children: { rules: '[reportingDescriptor]', shortDescription: MESSAGE_STRING, fullDescription: MESSAGE_STRING },
  },
  reportingDescriptor: {
    required: [['id']],
    allowed: words('id deprecatedIds guid deprecatedGuids name deprecatedNames shortDescription fullDescription messageStrings defaultConfiguration helpUri help relationships properties'),
    children: { shortDescription: MESSAGE_STRING, fullDescription: MESSAGE_STRING, help: MESSAGE_STRING, defaultConfiguration: 'reportingConfiguration' },
  },
  reportingConfiguration: { required: [], allowed: words('enabled level rank parameters properties'), children: {} },
  [MESSAGE_STRING]: { required: [['text']], allowed: words('text markdown properties'), children: {} },
  result: {
    required: [['message']],
    allowed: words(
      'ruleId ruleIndex rule kind level message analysisTarget locations guid correlationGuid occurrenceCount partialFingerprints fingerprints stacks codeFlows ' +
        'graphs graphTraversals relatedLocations suppressions baselineState rank attachments hostedViewerUri workItemUris provenance fixes taxa webRequest webResponse properties',
    ),
    children: { message: 'message', locations: '[location]' },
  },
  message: { required: [['text', 'id']], allowed: words('text markdown id arguments properties'), children: {} },
  location: {
    required: [],
    allowed: words('id physicalLocation logicalLocations message annotations relationships properties'),
    children: { physicalLocation: 'physicalLocation', message: 'message' },
  },
  physicalLocation: {
    required: [['address', 'artifactLocation']],
    allowed: words('address artifactLocation region contextRegion properties'),
    children: { artifactLocation: 'artifactLocation', region: 'region' },
  },
  artifactLocation: { required: [], allowed: words('uri uriBaseId index description properties'), children: {} },
  region: {
    required: [['startLine', 'charOffset', 'byteOffset']],
    allowed: words('startLine startColumn endLine endColumn charOffset charLength byteOffset byteLength snippet message sourceLanguage properties'),
    children: {},
  },
};

const LEVELS = ['none', 'note', 'warning', 'error'];

function checkObject(value: unknown, kind: string, where: string): void {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${where} is an object (${kind})`);
  const object = value as Record<string, unknown>;
  const rule = SARIF_OBJECTS[kind];
  for (const oneOf of rule.required) {
    assert.ok(
      oneOf.some((name) => object[name] !== undefined),
      `${where} has ${oneOf.join(' or ')}`,
    );
  }
  for (const name of Object.keys(object)) {
    assert.ok(rule.allowed.includes(name), `${where}.${name} is not a property of ${kind} in SARIF 2.1.0`);
  }
  for (const [name, child] of Object.entries(rule.children)) {
    const item = object[name];
    if (item === undefined) {
      continue;
    }
    if (child.startsWith('[')) {
      assert.ok(Array.isArray(item), `${where}.${name} is an array`);
      item.forEach((element, index) => checkObject(element, child.slice(1, -1), `${where}.${name}[${index}]`));
    } else {
      checkObject(item, child, `${where}.${name}`);
    }
  }
}

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { rules?: { id: string; defaultConfiguration?: { level?: string } }[] } };
    results: {
      ruleId?: string;
      ruleIndex?: number;
      level?: string;
      locations?: { physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number; startColumn?: number } } }[];
    }[];
  }[];
}

/** Asserts that `text` is a SARIF log upload-sarif takes, whose files are under `repository`; returns it parsed. */
export function assertSarifForCodeScanning(text: string, repository: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  checkObject(log, 'log', 'log');
  assert.equal(log.version, '2.1.0');
  for (const [runIndex, run] of log.runs.entries()) {
    const rules = run.tool.driver.rules ?? [];
    assert.equal(new Set(rules.map((rule) => rule.id)).size, rules.length, 'rule ids are unique');
    for (const rule of rules) {
      assert.ok(rule.defaultConfiguration?.level === undefined || LEVELS.includes(rule.defaultConfiguration.level), `rule ${rule.id}: level`);
    }
    for (const [index, result] of run.results.entries()) {
      const where = `runs[${runIndex}].results[${index}]`;
      assert.ok(result.level === undefined || LEVELS.includes(result.level), `${where}.level is one of ${LEVELS.join(', ')}`);
      assert.ok(result.ruleId !== undefined && rules.some((rule) => rule.id === result.ruleId), `${where} names a rule of the driver`);
      assert.equal(rules[result.ruleIndex ?? -1]?.id, result.ruleId, `${where}.ruleIndex points at its rule`);
      for (const location of result.locations ?? []) {
        const uri = location.physicalLocation?.artifactLocation?.uri ?? '';
        assert.ok(!/^[a-z][a-z0-9+.-]*:|^[/\\]/i.test(uri), `${where}: "${uri}" is relative to the repository`);
        assert.ok(fs.existsSync(path.join(repository, ...uri.split('/'))), `${where}: ${uri} is a file of the repository`);
        const region = location.physicalLocation?.region;
        for (const bound of [region?.startLine, region?.startColumn]) {
          assert.ok(bound === undefined || (Number.isInteger(bound) && bound >= 1), `${where}: lines and columns count from 1`);
        }
      }
    }
  }
  return log;
}
