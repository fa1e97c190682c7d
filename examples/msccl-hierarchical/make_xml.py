#!/usr/bin/env python3
"""Writes hierarchical-allreduce-2x8.xml: a 2D-hierarchical AllReduce for 2
servers x 8 GPUs in MSCCL's XML format (rank = server * 8 + local GPU).

The 16 chunks of the buffer form 8 blocks of 2 (block b = chunks 2b, 2b+1).
  tb 0 (channel 0): ring reduce-scatter inside the server; local GPU l ends
        with block l summed over its server.
  tb 1 (channel 0): with the same local GPU on the other server (its rail):
        server 0 keeps chunk 2l, server 1 chunk 2l+1; each sends the other
        half, adds what it receives, and sends its finished chunk back.
  tb 2 (channel 1): ring all-gather of the finished blocks inside the server.
"""

GPUS, SERVERS = 8, 2


def step(s, kind, chunk, cnt=1, dep=(-1, -1)):
    return (f'      <step s="{s}" type="{kind}" srcbuf="i" srcoff="{chunk}" dstbuf="i" dstoff="{chunk}" '
            f'cnt="{cnt}" depid="{dep[0]}" deps="{dep[1]}" hasdep="0"/>\n')


def gpu(server, l):
    rank = server * GPUS + l
    nxt, prv = server * GPUS + (l + 1) % GPUS, server * GPUS + (l - 1) % GPUS
    peer = (1 - server) * GPUS + l
    block = lambda b: 2 * (b % GPUS)
    out = [f'  <gpu id="{rank}" i_chunks="16" o_chunks="0" s_chunks="0">\n']
    # Reduce-scatter ring: send block l-1, then receive-add-forward, last receive keeps block l.
    out.append(f'    <tb id="0" send="{nxt}" recv="{prv}" chan="0">\n')
    out.append(step(0, "s", block(l - 1), 2))
    for s in range(1, GPUS - 1):
        out.append(step(s, "rrcs", block(l - 1 - s), 2))
    out.append(step(GPUS - 1, "rrc", block(l), 2))
    out.append('    </tb>\n')
    # Across servers on the rail: exchange halves of block l.
    mine, theirs = 2 * l + server, 2 * l + 1 - server
    out.append(f'    <tb id="1" send="{peer}" recv="{peer}" chan="0">\n')
    out.append(step(0, "s", theirs, 1, (0, GPUS - 1)))
    out.append(step(1, "rrc", mine))
    out.append(step(2, "s", mine))
    out.append(step(3, "r", theirs))
    out.append('    </tb>\n')
    # All-gather ring: send block l, then receive-and-forward, last receive kept.
    out.append(f'    <tb id="2" send="{nxt}" recv="{prv}" chan="1">\n')
    out.append(step(0, "s", block(l), 2, (1, 3)))
    for s in range(1, GPUS - 1):
        out.append(step(s, "rcs", block(l - s), 2))
    out.append(step(GPUS - 1, "r", block(l - GPUS + 1), 2))
    out.append('    </tb>\n  </gpu>\n')
    return "".join(out)


with open("hierarchical-allreduce-2x8.xml", "w") as f:
    f.write('<!-- 2D-hierarchical AllReduce, 2 servers x 8 GPUs; written by make_xml.py (collsim) -->\n')
    f.write('<algo name="hierarchical_2x8" proto="Simple" nchannels="2" nchunksperloop="16" ngpus="16" '
            'coll="allreduce" inplace="1" outofplace="0">\n')
    for server in range(SERVERS):
        for l in range(GPUS):
            f.write(gpu(server, l))
    f.write('</algo>\n')
