--[[
budget_grant.lua: a dry key receives the allowance another key lent it.

KEYS[1] borrowing budget key  hb:rwb:{<campaign>:<k>}
ARGV[1] amount (fen), as budget_lend.lua returned it

Replies (integer):
  1  granted
  0  the key was closed (budget_close.lua) since the allowance was lent: nothing changed. The lent
     allowance stays unspent (lent − borrowed in the keys), and so goes back with the escrow: the
     campaign's closing sum of what its keys reserved stays final.

Atomic so cap and borrowed move together.
--]]
if redis.call('HEXISTS', KEYS[1], 'closed') == 1 then return 0 end
redis.call('HINCRBY', KEYS[1], 'cap', tonumber(ARGV[1]))
redis.call('HINCRBY', KEYS[1], 'borrowed', tonumber(ARGV[1]))
return 1
