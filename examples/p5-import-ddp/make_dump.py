#!/usr/bin/env python3
"""Writes p5.48xlarge-nccl-topo.xml: an NCCL_TOPO_DUMP_FILE of a p5.48xlarge-class
node, written for collsim (not captured from a machine; bus ids are made up).

The layout follows what AWS documents for p5.48xlarge: 8 H100 SXM GPUs on
NVSwitch, 3200 Gbps of EFA networking as 32 x 100 Gbps EFA devices, 4 per GPU
behind the GPU's PCIe switch, and 2 AMD EPYC sockets (AWS EC2 accelerated
computing instance types; aws-ofi-nccl's published p5.48xl topology file pairs
each GPU's PCIe Gen5 x16 slot with four Gen4 x8 EFA devices under one switch).
Each H100 has 18 NVLink 4 links, spread 5+4+4+5 over the four NVSwitch chips
of the HGX H100 board (NVIDIA HGX H100 / DGX H100 documentation), which NCCL
dumps as one <nvlink> per switch chip with its count. Run it to regenerate
the file."""

def main():
    out = ['<!-- An NCCL_TOPO_DUMP_FILE of a p5.48xlarge-class node, written for collsim by',
           '     make_dump.py (not captured from a machine; bus ids are made up). -->',
           '<system version="1">']
    switch_chips = ['0000:e0:00.0', '0000:e1:00.0', '0000:e2:00.0', '0000:e3:00.0']
    links = [5, 4, 4, 5]
    for socket in range(2):
        out.append(f'  <cpu host_hash="0x5eed" numaid="{socket}" affinity="{"ffffffff,00000000" if socket else "00000000,ffffffff"}" '
                   'arch="x86_64" vendor="AuthenticAMD" familyid="25" modelid="1">')
        for k in range(4):
            g = socket * 4 + k
            bus = 0x10 + 0x10 * g
            out.append(f'    <pci busid="0000:{bus:02x}:00.0" class="0x060400" vendor="0x1000" device="0xc030" '
                       'link_speed="16.0 GT/s PCIe" link_width="16">')
            out.append(f'      <pci busid="0000:{bus + 1:02x}:00.0" class="0x030200" vendor="0x10de" device="0x2330" '
                       'link_speed="32.0 GT/s PCIe" link_width="16">')
            out.append(f'        <gpu dev="{g}" sm="90" rank="{g}" gdr="1">')
            for chip, count in zip(switch_chips, links):
                out.append(f'          <nvlink target="{chip}" count="{count}" tclass="0x068000"/>')
            out.append('        </gpu>')
            out.append('      </pci>')
            for n in range(4):
                dev = g * 4 + n
                out.append(f'      <pci busid="0000:{bus + 2 + n:02x}:00.0" class="0x020000" vendor="0x1d0f" '
                           'device="0xefa1" link_speed="16.0 GT/s PCIe" link_width="8">')
                out.append('        <nic>')
                out.append(f'          <net name="rdmap{bus + 2 + n}s0" dev="{dev}" speed="100000" port="1" '
                           f'latency="0.000000" guid="0x{dev:x}" maxconn="1024" gdr="1"/>')
                out.append('        </nic>')
                out.append('      </pci>')
            out.append('    </pci>')
        out.append('  </cpu>')
    out.append('</system>')
    with open('p5.48xlarge-nccl-topo.xml', 'w') as f:
        f.write('\n'.join(out) + '\n')

main()
