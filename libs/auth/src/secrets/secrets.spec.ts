import { isUuid } from '@switchyard/kernel';
import { deriveBootstrapKeyId } from './bootstrap-key-id';
import {
  generateApplicationKeySecret,
  generateServiceTokenSecret,
  hashSecret,
  isSwitchyardSecret,
} from './secrets';

describe('secrets', () => {
  it('generates prefixed, URL-safe secrets with 256 random bits', () => {
    const admin = generateApplicationKeySecret('admin');
    expect(admin).toMatch(/^sy_admin_[A-Za-z0-9_-]{43}$/);
    expect(generateApplicationKeySecret('ci')).toMatch(/^sy_ci_[A-Za-z0-9_-]{43}$/);
    expect(generateServiceTokenSecret()).toMatch(/^syt_[A-Za-z0-9_-]{43}$/);
    expect(generateApplicationKeySecret('admin')).not.toBe(admin);
  });

  it('hashes to lower-case hex SHA-256', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('recognises our own prefixes only', () => {
    expect(isSwitchyardSecret('sy_ci_x')).toBe(true);
    expect(isSwitchyardSecret('syt_x')).toBe(true);
    expect(isSwitchyardSecret('ghp_x')).toBe(false);
    expect(isSwitchyardSecret('github_pat_x')).toBe(false);
  });

  it('derives the same well-formed uuid from the same admin key, and another from another', () => {
    const id = deriveBootstrapKeyId('operator-chosen-admin-key');
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('8');
    expect(deriveBootstrapKeyId('operator-chosen-admin-key')).toBe(id);
    expect(deriveBootstrapKeyId('operator-chosen-admin-kez')).not.toBe(id);
  });
});
