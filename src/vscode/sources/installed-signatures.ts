// What the Skills view says of an installed skill's signature under its project's skills-trust.json:
// "signed by NAME" or "unsigned". Verified again from what skills-lock.json keeps, never fetched, so
// it costs no network; a project without a policy says nothing of signatures. The verification code
// is loaded only once a project has a policy.

import * as fs from 'node:fs/promises';
import type { lockedSignatureState, SignatureState } from '../../core/sources/signatures';
import { readTrustPolicy, type TrustPolicy } from '../../core/sources/trust-policy';
import type { InstalledMark } from '../../core/view/skill-view';
import { errorMessage } from '../../core/util/errors';
import type { LockEntry } from '../../core/sources/lock';

export type SignatureMark = NonNullable<InstalledMark['signature']>;

/** An installed skill as far as its signature goes: the lock entry it was installed by, and where. */
export interface LockedSkill {
  name: string;
  /** The workspace folder holding skills-lock.json. */
  projectDir: string;
  /** The installed skill folder, as discovery found it. */
  folder: string;
  entry: LockEntry;
}

/** Verifies a locked skill's signature; given by the caller, which loads it from the sources' side bundle on first use. */
export type LockedSignatureCheck = typeof lockedSignatureState;

export class InstalledSignatures {
  /** Verdicts by what they depend on: the lock entry, the policy's rules and its signers files as they were. */
  private cache = new Map<string, SignatureMark>();

  constructor(
    private readonly verify: LockedSignatureCheck,
    private readonly warn: (message: string) => void,
  ) {}

  /** The mark of each installed skill (by folder) whose project has a trust policy. */
  async marks(skills: readonly LockedSkill[]): Promise<Map<string, SignatureMark>> {
    const marks = new Map<string, SignatureMark>();
    const kept = new Map<string, SignatureMark>();
    const policies = new Map<string, TrustPolicy | undefined>();
    for (const skill of skills) {
      if (!policies.has(skill.projectDir)) {
        policies.set(skill.projectDir, await this.policyOf(skill.projectDir));
      }
      const policy = policies.get(skill.projectDir);
      if (policy) {
        const key = JSON.stringify([skill.projectDir, skill.entry, policy.rules, await signersVersions(policy)]);
        const mark = this.cache.get(key) ?? (await this.verified(skill, policy));
        kept.set(key, mark);
        marks.set(skill.folder, mark);
      }
    }
    this.cache = kept;
    return marks;
  }

  private async verified(skill: LockedSkill, policy: TrustPolicy): Promise<SignatureMark> {
    try {
      return markOf(await this.verify(skill.name, skill.entry, skill.projectDir, policy));
    } catch (error) {
      return { unsigned: `its signature could not be verified: ${errorMessage(error)}` };
    }
  }

  private async policyOf(projectDir: string): Promise<TrustPolicy | undefined> {
    try {
      return await readTrustPolicy(projectDir);
    } catch (error) {
      this.warn(errorMessage(error));
      return undefined;
    }
  }
}

function markOf(state: SignatureState): SignatureMark {
  switch (state.kind) {
    case 'signed':
      return { signer: state.signer, key: state.key };
    case 'refused':
      return { unsigned: state.problem };
    default:
      return { unsigned: state.reason };
  }
}

/** When each signers file was last changed, so an edit to one verifies again. */
function signersVersions(policy: TrustPolicy): Promise<(number | undefined)[]> {
  return Promise.all(
    policy.rules.map((rule) =>
      fs.stat(rule.allowedSignersFile).then(
        (stat) => stat.mtimeMs,
        () => undefined,
      ),
    ),
  );
}
