--[[
budget_open.lua: sets up one budget key of a campaign, once.

KEYS[1] budget key       hb:rwb:{<campaign>:<k>}   hash: budget, init, cap, used, lent, borrowed
ARGV[1] campaign budget (fen)   ARGV[2] this key's initial allowance (fen)

Replies (integer):
  1  the key holds this budget (set up now or before)
  0  the key was set up before with another budget: nothing changed

Atomic so that two instances opening the same campaign cannot leave a key half set up.
--]]
local budget = redis.call('HGET', KEYS[1], 'budget')
if budget then
  if budget == ARGV[1] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'budget', ARGV[1], 'init', ARGV[2], 'cap', ARGV[2], 'used', 0,
  'lent', 0, 'borrowed', 0)
return 1
