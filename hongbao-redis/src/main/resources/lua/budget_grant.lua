--[[
budget_grant.lua: a dry key receives the allowance another key lent it.

KEYS[1] borrowing budget key  hb:rwb:{<campaign>:<k>}
ARGV[1] amount (fen), as budget_lend.lua returned it

Replies (integer):
  1  granted
  0  the key was closed (budget_close.lua) since the allowance was lent: nothing changed. The lent
     allowance stays unspent (lent − borrowed in the keys), and so goes back with the escrow: the
     campaign's closing sum of what its keys reserved stays final. Or the key is gone (Redis lost
     it since it answered DRY): a grant would create it half set up, cap and borrowed with no
     budget or used, and every reservation on it would fail in the script until the campaign is
     opened again. Left gone, it reads as lost, which opens it again; the lent allowance stays
     unspent, as above.

Atomic so cap and borrowed move together.
--]]
local state = redis.call('HMGET', KEYS[1], 'budget', 'closed')
if not state[1] or state[2] then return 0 end
redis.call('HINCRBY', KEYS[1], 'cap', tonumber(ARGV[1]))
redis.call('HINCRBY', KEYS[1], 'borrowed', tonumber(ARGV[1]))
return 1
