--[[
budget_open.lua: sets up one budget key of a campaign, once per version of its budget.

KEYS[1] budget key       hb:rwb:{<campaign>:<k>}   hash: budget, init, cap, used, lent, borrowed,
                                                   v (the budget's version; absent means 1)
ARGV[1] campaign budget (fen)   ARGV[2] this key's initial allowance (fen)
ARGV[3] the budget's version (1 when opened; an edit of a scheduled rain campaign raises it)

Replies (integer):
  1  the key holds this budget (set up now, resized now, or before)
  0  the key holds another budget under the same version: nothing changed
  2  the key holds a newer version (an instance armed an old copy): nothing changed
 -1  the key is of an older version but reserved, lent or borrowed already: it cannot be resized
     without breaking "allowances never exceed the budget", so nothing changed

Atomic so that two instances opening the same campaign cannot leave a key half set up, and so that
a resize (a newer version over a key nothing was reserved from) happens once, whole.
--]]
local budget = redis.call('HGET', KEYS[1], 'budget')
local version = tonumber(ARGV[3])
if budget then
  local held = tonumber(redis.call('HGET', KEYS[1], 'v') or '1')
  if held > version then return 2 end
  if held == version then
    if budget == ARGV[1] then return 1 end
    return 0
  end
  local spent = redis.call('HMGET', KEYS[1], 'used', 'lent', 'borrowed')
  for _, value in ipairs(spent) do
    if tonumber(value or '0') ~= 0 then return -1 end
  end
end
redis.call('HSET', KEYS[1], 'budget', ARGV[1], 'init', ARGV[2], 'cap', ARGV[2], 'used', 0,
  'lent', 0, 'borrowed', 0, 'v', ARGV[3])
-- The resize an edit froze the key for (budget_freeze.lua) is done.
redis.call('HDEL', KEYS[1], 'frozen')
return 1
