--[[
prune.lua: forgets the consumers of one payout stream's group that hold nothing and have been idle
long enough (an instance that stopped leaves its consumer names behind).

KEYS[1] payout stream  hb:{sNNN}:payouts
ARGV[1] group  ARGV[2] idle (ms)

Reply (integer): how many consumers were deleted; 0 when the stream or its group is gone (the next
poll makes the group again).

Atomic because the check and the delete must see the same consumer: a reclaimer's consumer is idle
on most streams for hours, and if it claimed a dead instance's tasks between a separate check and
XGROUP DELCONSUMER, the delete would take those tasks out of the group's pending list, where no
reclaim would ever find them again.
--]]
local consumers = redis.pcall('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])
if type(consumers) == 'table' and consumers.err then
  if string.find(consumers.err, 'NOGROUP', 1, true) or string.find(consumers.err, 'no such key', 1, true) then
    return 0
  end
  return consumers
end
local removed = 0
local idle = tonumber(ARGV[2])
for _, consumer in ipairs(consumers) do
  local fields = {}
  for i = 1, #consumer, 2 do
    fields[consumer[i]] = consumer[i + 1]
  end
  if tonumber(fields['pending']) == 0 and tonumber(fields['idle']) >= idle then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], fields['name'])
    removed = removed + 1
  end
end
return removed
