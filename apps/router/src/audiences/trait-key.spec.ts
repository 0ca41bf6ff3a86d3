import { snakeCase } from './trait-key';

describe('snakeCase (audience name → trait key)', () => {
  it.each([
    // The examples
    ['a lowercase-capital brand and digits', 'iOS 14 Users', 'ios_14_users'],
    ['a plural acronym after an underscore', 'user_IDs', 'user_ids'],
    ['hyphen and parentheses', 'VIP-Customers (EU)', 'vip_customers_eu'],
    ['camelCase with digits', 'newUsers2024', 'new_users_2024'],
    ['letters then digits', 'ios14', 'ios_14'],
    ['acronym inside camelCase', 'myAPIKey', 'my_api_key'],
    ['acronym then word', 'HTTPServer', 'http_server'],
    ['brands stay whole', 'iPhone eBay iOS', 'iphone_ebay_ios'],
    ['plural acronym', 'URLs', 'urls'],
    // Separators
    ['spaces', 'High Value Users', 'high_value_users'],
    ['leading, trailing and repeated spaces', '  High   Value  ', 'high_value'],
    ['punctuation', 'Users: viewed pricing (last 7 days)!', 'users_viewed_pricing_last_7_days'],
    ['hyphens and dots', 'power-users.eu', 'power_users_eu'],
    ['existing underscores', 'already_snake_case', 'already_snake_case'],
    ['percent and symbols', 'Top 5% spenders & co', 'top_5_spenders_co'],
    ['emoji', 'fans 🎉 2024', 'fans_2024'],
    ['emoji glued to a word', '🔥Hot🔥Leads', 'hot_leads'],
    // Case
    ['camelCase', 'highValueUsers', 'high_value_users'],
    ['PascalCase', 'HighValueUsers', 'high_value_users'],
    ['acronym at the start', 'VIPUsers', 'vip_users'],
    ['acronym at the end', 'usersVIP', 'users_vip'],
    ['all capitals', 'CHURN RISK', 'churn_risk'],
    ['one lowercase letter before a capital stays whole', 'aB', 'ab'],
    // Digits
    ['digits between spaces', 'Top 10 Buyers', 'top_10_buyers'],
    ['digits inside a word', 'b2b buyers', 'b_2_b_buyers'],
    ['capital after digits', 'last7Days', 'last_7_days'],
    ['leading digits', '30DayActive', '30_day_active'],
    ['digits only', '2024', '2024'],
    // Accents and scripts
    ['accents', 'Clients fidèles à Zürich', 'clients_fideles_a_zurich'],
    ['accented capitals', 'ÉTÉ Acheteurs', 'ete_acheteurs'],
    ['accented camelCase', 'clientsFidèlesÉté', 'clients_fideles_ete'],
    ['letters without decomposition are kept', 'Straße Øst', 'straße_øst'],
    ['a script without case', 'ユーザー 2024', 'ユーザー_2024'],
    ['a script whose vowels are marks', 'हिन्दी users', 'हिन्दी_users'],
    // Nothing usable (the caller falls back to the computation id)
    ['no letters or digits', '!!!', ''],
    ['only emoji and spaces', ' 🎉 🎉 ', ''],
    ['empty', '', ''],
  ])('%s: %j → %j', (_rule, name, expected) => {
    expect(snakeCase(name)).toBe(expected);
  });
});
