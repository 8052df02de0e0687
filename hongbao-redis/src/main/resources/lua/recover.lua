--[[
recover.lua: put grabs that the store lost back into a packet's state.

After a data loss (writes acknowledged inside the fsync window, a failover to a lagging replica)
the store may have forgotten grabs that happened: grabs the ledger has already paid (restored
from the ledger, no payout task) or grabs whose receipt a user presents (claimed: a payout task is
appended, as a grab would). Each recovered grab takes its amount out of what is left, so the
packet never hands out more than its total and count.

KEYS[1] meta hash      hb:{sNNN}:p:<id>
KEYS[2] shares list    hb:{sNNN}:p:<id>:shares
KEYS[3] grabs hash     hb:{sNNN}:p:<id>:grabs
KEYS[4] payout stream  hb:{sNNN}:payouts
KEYS[5] activity hash  hb:{sNNN}:a:<activity>, only for a packet of an activity (meta lim)
ARGV[1] mode: CLAIM (append a payout task) | RESTORE (the ledger has paid it: no task)
ARGV[2] packetId
then 3 values per grab: user, amount (fen), grab time (ms)

Replies: one per grab, in order, each an array:
  {'RECOVERED', amount, seq}   recorded now as the packet's seq-th grab
  {'ALREADY_GRABBED', amount}  the store has this user's grab (possibly with another amount)
  {'EXHAUSTED'}                what is left cannot cover it: no share, or too few fen for the
                               shares still untaken to keep at least 1 fen each; nothing changed
  {'REFUNDED'}                 the packet is closed with its grabs recorded: its remainder went
                               back to the sender, and what its escrow still holds is owed to
                               the grabs recorded here; nothing changed
  {'CLOSED'}                   the packet is held, or closed without a record of its grabs (the
                               store had lost them when it closed, and the ledger decides);
                               nothing changed
  {'NOT_FOUND'}                no meta: arm the packet from the ledger first
  {'LIMIT_REACHED'}            CLAIM only: the user has grabbed lim shares of the packet's
                               activity without this one; nothing changed (a restored grab the
                               ledger paid is a fact and is always put back)

A grab put back in a packet of an activity counts for its user, once (the user's entry lists
packet ids).

How a pre-split pool gives up exactly `amount` fen and one share: pop the next share s; if s is
larger, the difference goes onto the next share (or, for the last share, stays as the meta's
`spare`, refunded at close); if smaller, the difference is taken from later shares, keeping each
at 1 fen at least. Atomic because a script runs alone on the shard.
--]]
local results = {}
local meta = redis.call('HMGET', KEYS[1], 'count', 'taken', 'status', 'mode', 'total',
  'takenAmount', 'ttlAt', 'lim', 'createdAt')
if not meta[1] then
  for i = 3, #ARGV, 3 do
    table.insert(results, {'NOT_FOUND'})
  end
  return results
end
local count = tonumber(meta[1])
local lim = tonumber(meta[8])

-- The user's entry in the activity, and whether it already lists this packet.
local function activityEntry(user)
  local mine = redis.call('HGET', KEYS[5], user)
  return mine, mine and string.find(',' .. mine .. ',', ',' .. ARGV[2] .. ',', 1, true) ~= nil
end

local function takeFromPool(amount, left)
  if meta[4] == 'G' then
    local rest = tonumber(redis.call('HGET', KEYS[1], 'total'))
      - tonumber(redis.call('HGET', KEYS[1], 'takenAmount'))
    if rest - amount < left - 1 then
      return false
    end
    return true
  end
  local share = redis.call('LPOP', KEYS[2])
  if not share then
    return false
  end
  local diff = tonumber(share) - amount
  if diff > 0 then
    if left > 1 then
      redis.call('LSET', KEYS[2], 0, string.format('%d', tonumber(redis.call('LINDEX', KEYS[2], 0)) + diff))
    else
      redis.call('HINCRBY', KEYS[1], 'spare', diff)
    end
  elseif diff < 0 then
    local need = -diff
    local rest = redis.call('LRANGE', KEYS[2], 0, -1)
    local spare = 0
    for _, s in ipairs(rest) do
      spare = spare + tonumber(s) - 1
    end
    if spare < need then
      redis.call('LPUSH', KEYS[2], share)
      return false
    end
    for i, s in ipairs(rest) do
      if need == 0 then
        break
      end
      local give = math.min(tonumber(s) - 1, need)
      if give > 0 then
        redis.call('LSET', KEYS[2], i - 1, string.format('%d', tonumber(s) - give))
        need = need - give
      end
    end
  end
  return true
end

for i = 3, #ARGV, 3 do
  local user = ARGV[i]
  local amount = tonumber(ARGV[i + 1])
  local at = ARGV[i + 2]
  local earlier = redis.call('HGET', KEYS[3], user)
  local taken = tonumber(redis.call('HGET', KEYS[1], 'taken'))
  if earlier then
    table.insert(results, {'ALREADY_GRABBED', tonumber(string.match(earlier, '^(%d+)|'))})
  elseif meta[3] == 'C' and count > 0 then
    table.insert(results, {'REFUNDED'})
  elseif meta[3] == 'C' or meta[3] == 'H' or count == 0 then
    table.insert(results, {'CLOSED'})
  elseif lim and ARGV[1] == 'CLAIM' and (function()
      local mine, listed = activityEntry(user)
      return mine and not listed and select(2, string.gsub(mine, ',', ',')) + 1 >= lim
    end)() then
    table.insert(results, {'LIMIT_REACHED'})
  elseif taken >= count or not takeFromPool(amount, count - taken) then
    table.insert(results, {'EXHAUSTED'})
  else
    local seq = redis.call('HINCRBY', KEYS[1], 'taken', 1)
    redis.call('HINCRBY', KEYS[1], 'takenAmount', amount)
    redis.call('HSET', KEYS[3], user, string.format('%d', amount) .. '|' .. at .. '|' .. seq)
    redis.call('PEXPIREAT', KEYS[3], meta[7])
    if seq == count then
      redis.call('HSET', KEYS[1], 'emptiedAt', at)
    end
    if lim then
      local mine, listed = activityEntry(user)
      if not mine then
        redis.call('HSET', KEYS[5], user, ARGV[2])
      elseif not listed then
        redis.call('HSET', KEYS[5], user, mine .. ',' .. ARGV[2])
      end
    end
    if ARGV[1] == 'CLAIM' then
      redis.call('XADD', KEYS[4], '*', 'p', ARGV[2], 'u', user, 'a', string.format('%d', amount),
        't', at, 'c', meta[9] or '')
    end
    table.insert(results, {'RECOVERED', amount, seq})
  end
end
return results
