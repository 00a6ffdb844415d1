// The PowerShell side of the Windows tray: a NotifyIcon with a context menu on a WinForms message loop, reading
// `show`/`close` lines from stdin (polled by a timer on the UI thread, so no second thread) and writing `ready`,
// `action` and `error` lines to stdout. Protocol: windows-tray-protocol.ts.
export const WINDOWS_TRAY_SCRIPT = String.raw`
$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
Add-Type -AssemblyName System.Drawing
[Console]::InputEncoding = New-Object System.Text.UTF8Encoding $false
[Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false
function Send-Line($message) { [Console]::Out.WriteLine(($message | ConvertTo-Json -Compress)); [Console]::Out.Flush() }
$tray = New-Object System.Windows.Forms.NotifyIcon
$tray.ContextMenuStrip = New-Object System.Windows.Forms.ContextMenuStrip
$tray.Text = 'Keyframe'
$tray.add_MouseClick({ param($source, $click) if ($click.Button -eq [System.Windows.Forms.MouseButtons]::Left) { Send-Line @{ type = 'action'; action = 'open' } } })
$icons = @{}
function Show-Model($model) {
  if (-not $icons.ContainsKey($model.icon)) { $icons[$model.icon] = [System.Drawing.Icon]::FromHandle(([System.Drawing.Bitmap]::FromFile($model.icon)).GetHicon()) }
  $tray.Icon = $icons[$model.icon]
  $tray.Text = $model.tooltip
  $tray.ContextMenuStrip.Items.Clear()
  foreach ($item in $model.items) {
    $entry = $tray.ContextMenuStrip.Items.Add([string]$item.label)
    $entry.Enabled = [bool]$item.enabled
    $entry.Tag = [string]$item.action
    $entry.add_Click({ param($source, $click) Send-Line @{ type = 'action'; action = $source.Tag } })
  }
  $tray.Visible = $true
}
function Stop-Tray { $tray.Visible = $false; [System.Windows.Forms.Application]::Exit() }
$script:pending = [Console]::In.ReadLineAsync()
$timer = New-Object System.Windows.Forms.Timer
$timer.Interval = 100
$timer.add_Tick({
  try {
    while ($script:pending.IsCompleted) {
      $line = $script:pending.Result
      if ($null -eq $line) { Stop-Tray; return }
      $message = $line | ConvertFrom-Json
      if ($message.type -eq 'close') { Stop-Tray; return }
      if ($message.type -eq 'show') { Show-Model $message }
      $script:pending = [Console]::In.ReadLineAsync()
    }
  } catch { Send-Line @{ type = 'error'; message = $_.Exception.Message }; Stop-Tray }
})
$timer.Start()
Send-Line @{ type = 'ready' }
[System.Windows.Forms.Application]::Run()
$tray.Dispose()
`;
