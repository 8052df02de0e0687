--[[
ack.lua: acknowledge paid payout tasks of one stream and take them out of it.

KEYS[1] payout stream  hb:{sNNN}:payouts
ARGV[1] consumer group   ARGV[2..] ids of the entries paid (at most 10,000)

Reply (integer): how many of the ids had to be deleted one by one (XDEL), because an older entry
of the stream was still waiting when they were acknowledged.

Why trim: the stream is read in id order, so what is acknowledged is nearly always its head. XTRIM
MINID drops the head a listpack node at a time; XDEL seeks every id and marks it deleted inside its
node, which cost Redis about 10 µs per grab. The bound is the oldest entry that still waits: the
oldest one pending in the group, or, when none is pending, the one after the group's last
delivered id. Everything below it has been delivered and is no longer pending, so it has been
acknowledged (paid, or dead-lettered): trimming never removes a task that is not paid. Ids at or
above the bound (acknowledged while an older task is pending with another consumer) are deleted by
XDEL, so after every call the stream holds exactly the tasks not yet acknowledged, as it did with
XDEL alone: its length stays the backlog, and close.lua's scan finds only tasks that wait. With
no group (lost with the stream, made again by the next poll) nothing is trimmed: the ids are only
deleted.

Atomic because a script runs alone on the shard: no entry is delivered or claimed between reading
the group's state and trimming, so the bound cannot move below what the trim removes.
--]]
local CHUNK = 1000

local function each_chunk(command, prefix, ids)
  for from = 1, #ids, CHUNK do
    local args = {}
    for i = from, math.min(from + CHUNK - 1, #ids) do
      args[#args + 1] = ids[i]
    end
    if prefix then
      redis.call(command, KEYS[1], prefix, unpack(args))
    else
      redis.call(command, KEYS[1], unpack(args))
    end
  end
end

-- ms and seq of an id as numbers, or nil past 2^53, where Lua's doubles stop being exact (ms since
-- 1970 and a per-ms sequence stay far below it; such an id is deleted by XDEL, and such a bound
-- trims nothing, rather than being compared wrongly).
local function parse(id)
  local ms, seq = string.match(id or '', '^(%d+)-(%d+)$')
  ms, seq = tonumber(ms), tonumber(seq)
  if not ms or not seq or ms >= 2 ^ 53 or seq + 1 >= 2 ^ 53 then
    return nil
  end
  return ms, seq
end

local function below(ams, aseq, bms, bseq)
  return ams < bms or (ams == bms and aseq < bseq)
end

local ids = {}
for i = 2, #ARGV do
  ids[#ids + 1] = ARGV[i]
end
if #ids == 0 or redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end

local delivered
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local fields = {}
  for i = 1, #group, 2 do
    fields[group[i]] = group[i + 1]
  end
  if fields['name'] == ARGV[1] then
    delivered = fields['last-delivered-id']
  end
end
if not delivered then
  each_chunk('XDEL', nil, ids)
  return #ids
end
each_chunk('XACK', ARGV[1], ids)

local bms, bseq
local oldest = redis.call('XPENDING', KEYS[1], ARGV[1])[2]
if oldest then
  bms, bseq = parse(oldest)
else
  bms, bseq = parse(delivered)
  if bms then
    bseq = bseq + 1
  end
end
if not bms then
  each_chunk('XDEL', nil, ids)
  return #ids
end
redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d-%d', bms, bseq))

local left = {}
for _, id in ipairs(ids) do
  local ms, seq = parse(id)
  if not ms or not below(ms, seq, bms, bseq) then
    left[#left + 1] = id
  end
end
each_chunk('XDEL', nil, left)
return #left
