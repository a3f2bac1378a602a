// biome-ignore lint/style/noRestrictedImports: a test (never bundled) checks the request against the contract's schema.
import users from '@appdesk/contract/endpoints/users';
import { describe, expect, it } from 'vitest';
import { listInputOf } from '../../../components/list/listState';
import { segmentFilter, usersList } from './query';

const input = users['/api/users/fetch/page'].input;

describe('the users list: URL query to request', () => {
  it('asks for what the URL says, in a shape the endpoint accepts', () => {
    const asked = listInputOf(
      'status=blocked&search=张三&channel=huawei&vip=active&sort=coins&order=ascend&page=2',
      usersList,
    );
    expect(asked).toMatchObject({
      status: 'blocked',
      search: '张三',
      channel: 'huawei',
      vip: 'active',
      sort: 'coins',
      order: 'ascend',
      page: 1,
    });
    expect(input.safeParse(asked).success).toBe(true);
  });

  it('drops values it does not know instead of sending them (the list still loads)', () => {
    const asked = listInputOf('status=deleted&channel=nokia&vip=gold&from=yesterday&sort=password', usersList);
    expect(asked).toMatchObject({ status: 'all', sort: 'createdAt', order: 'descend' });
    expect(segmentFilter({ channel: 'nokia', vip: 'gold', from: 'yesterday' })).toEqual({
      channel: undefined,
      app: undefined,
      from: undefined,
      to: undefined,
      activeFrom: undefined,
      activeTo: undefined,
      vip: undefined,
    });
    expect(input.safeParse(asked).success).toBe(true);
  });

  it('turns 活跃 today into midnight in Shanghai', () => {
    const asked = listInputOf('active=today', usersList) as { activeFrom?: string };
    const at = new Date(asked.activeFrom ?? '');
    // Midnight in Shanghai is 16:00 UTC the day before.
    expect(at.getUTCHours()).toBe(16);
    expect(Date.now() - at.getTime()).toBeLessThan(24 * 60 * 60 * 1000);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
  });
});
