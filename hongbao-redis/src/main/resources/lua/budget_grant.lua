--[[
budget_grant.lua: a dry key receives the allowance another key lent it.

KEYS[1] borrowing budget key  hb:rwb:{<campaign>:<k>}
ARGV[1] amount (fen), as budget_lend.lua returned it

Reply (integer): 1.

Atomic so cap and borrowed move together.
--]]
redis.call('HINCRBY', KEYS[1], 'cap', tonumber(ARGV[1]))
redis.call('HINCRBY', KEYS[1], 'borrowed', tonumber(ARGV[1]))
return 1
