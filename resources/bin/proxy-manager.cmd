@echo off
rem proxy-manager: Proxy Manager's command line on PATH (docs/install.md says how to add this
rem folder to PATH). It runs the app's executable with the arguments unchanged; the app recognises
rem a command (proxy-manager ports list) and runs it without opening a window.
"%~dp0..\..\Proxy Manager.exe" %*
exit /b %ERRORLEVEL%
