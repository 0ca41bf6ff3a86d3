import { snakeCase } from './trait-key';

describe('snakeCase (audience name → trait key)', () => {
  it.each([
    ['spaces', 'High Value Users', 'high_value_users'],
    ['repeated and surrounding spaces', '  High   Value  ', 'high_value'],
    ['punctuation', 'Users: viewed pricing (last 7 days)!', 'users_viewed_pricing_last_7_days'],
    ['hyphens and dots', 'power-users.eu', 'power_users_eu'],
    ['existing underscores', 'already_snake_case', 'already_snake_case'],
    ['camelCase', 'highValueUsers', 'high_value_users'],
    ['PascalCase', 'HighValueUsers', 'high_value_users'],
    ['acronym then word', 'VIPUsers', 'vip_users'],
    ['word then acronym', 'usersVIP', 'users_vip'],
    ['all capitals', 'CHURN RISK', 'churn_risk'],
    ['digits between spaces', 'Top 10 Buyers', 'top_10_buyers'],
    ['digits glued to letters stay one word', 'ios14 users b2b', 'ios14_users_b2b'],
    ['capital after digits starts a word', 'last7Days', 'last7_days'],
    ['leading digits', '30DayActive', '30_day_active'],
    ['accents', 'Clients fidèles à Zürich', 'clients_fideles_a_zurich'],
    ['accented capitals', 'ÉTÉ Acheteurs', 'ete_acheteurs'],
    ['letters without decomposition are kept', 'Straße Øst', 'straße_øst'],
    ['percent and symbols', 'Top 5% spenders & co', 'top_5_spenders_co'],
    ['emoji is a separator', 'fans 🎉 2024', 'fans_2024'],
    ['nothing usable', '!!!', ''],
  ])('%s: %j → %j', (_rule, name, expected) => {
    expect(snakeCase(name)).toBe(expected);
  });
});
