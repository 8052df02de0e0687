--[[
budget_lend.lua: a key with allowance to spare gives some of it away.

KEYS[1] lending budget key  hb:rwb:{<campaign>:<j>}
ARGV[1] wanted (fen)

Reply (integer): how much was taken off this key's allowance (0..wanted), or -1 for a frozen key,
which lends nothing; the caller grants what it took to the dry key with budget_grant.lua. If the caller dies in between, that much allowance is lost to
the campaign (the books show it as lent minus borrowed): never more is spent than the budget.

A closed key (budget_close.lua) lends nothing: the closing counted its allowance out, even room
a release left on it afterwards.

Atomic so the allowance given away is never reserved on this key at the same time.
--]]
local state = redis.call('HMGET', KEYS[1], 'cap', 'used', 'closed', 'frozen')
if not state[1] or state[3] then return 0 end
-- A frozen key (budget_freeze.lua) may be about to be resized: lending would refuse the resize.
-- A freeze that ended holds too, until a reservation has asked the books (budget_reserve.lua,
-- LAPSED) whether its edit committed.
if state[4] then return -1 end
local spare = tonumber(state[1]) - tonumber(state[2])
local give = math.min(spare, tonumber(ARGV[1]))
if give <= 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'cap', -give)
redis.call('HINCRBY', KEYS[1], 'lent', give)
return give
